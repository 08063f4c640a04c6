/**
 * Chunk offsets are stored in Unicode code points, as Postgres `substr` and Python slicing count,
 * not in JavaScript's UTF-16 units: a document with 𝒮 or an emoji would otherwise be sliced wrongly
 * by every client that is not JavaScript. Returns the converter for one text.
 */
export function codePointOffsets(text: string): (utf16Index: number) => number {
  if (!/[\uD800-\uDFFF]/.test(text)) return (index) => index;
  const prefix = new Int32Array(text.length + 1);
  let points = 0;
  for (let index = 0; index < text.length; index++) {
    prefix[index] = points;
    const code = text.charCodeAt(index);
    // The low half of a pair does not start a new code point.
    if (!(code >= 0xdc00 && code <= 0xdfff && index > 0 && isHighSurrogate(text.charCodeAt(index - 1))))
      points++;
  }
  prefix[text.length] = points;
  return (index) => prefix[index]!;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
