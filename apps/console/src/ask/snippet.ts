/**
 * A passage's source text read as plain prose, for a one-paragraph quote: code fences, emphasis
 * marks, heading hashes and inline-code backticks go, their words stay. Rendering it as Markdown
 * instead would break on a passage cut mid-block (an open fence swallowing the rest).
 */
export function plainSnippet(text: string): string {
  return (
    text
      .replace(/```[\w+-]*\n?/g, '')
      .replace(/^\s{0,3}#{1,6}\s+/gm, '')
      .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '$1')
      // Underscores inside a word (snake__case) are not emphasis, as in CommonMark.
      .replace(/(?<!\w)__(?=\S)([\s\S]*?\S)__(?!\w)/g, '$1')
      .replace(/`([^`\n]*)`/g, '$1')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
