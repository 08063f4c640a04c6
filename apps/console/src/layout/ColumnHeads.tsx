/**
 * A table's header row: one column header per name, scoped so a screen reader reads each cell with
 * its column. Names listed in `optional` get the `optional` class (hidden on a narrow screen).
 */
export function ColumnHeads({
  names,
  optional = [],
}: {
  names: readonly string[];
  optional?: readonly string[];
}) {
  return (
    <thead>
      <tr>
        {names.map((name) => (
          <th key={name} scope="col" className={optional.includes(name) ? 'optional' : undefined}>
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
