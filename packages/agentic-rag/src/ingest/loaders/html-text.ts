import type { ChildNode } from 'domhandler';

/** Text of a <pre> exactly as written: whitespace is meaning there. */
export function rawText(node: ChildNode): string {
  if (node.type === 'text') return node.data;
  if (node.type === 'tag') return node.name === 'br' ? '\n' : node.children.map(rawText).join('');
  return '';
}

/** Runs of whitespace (newlines of the HTML source included) as one space, trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
