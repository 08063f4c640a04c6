/**
 * A plain-text table: the first two columns (names) left-aligned, the figures right-aligned, two
 * spaces between columns. What every eval report prints.
 */
export function textTable(header: readonly string[], body: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...body.map((line) => line[column]!.length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  return [line(header), ...body.map(line)].join('\n');
}
