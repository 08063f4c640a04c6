/** The angle from `a` to `b` either way round, 0 to π. */
function between(a: number, b: number): number {
  const turn = Math.abs(a - b) % (2 * Math.PI);
  return Math.min(turn, 2 * Math.PI - turn);
}

/** The circular mean of angles, or null for none. */
function meanAngle(angles: number[]): number | null {
  if (angles.length === 0) return null;
  const sin = angles.reduce((sum, angle) => sum + Math.sin(angle), 0);
  const cos = angles.reduce((sum, angle) => sum + Math.cos(angle), 0);
  return Math.atan2(sin, cos);
}

/**
 * Angles for `count` nodes clockwise from the top: half down the right side, half up the left, at
 * even heights rather than even angles. Labels run sideways, so what keeps them apart is the height
 * between neighbours on a side, which this makes the same all the way round.
 */
export function ringSlots(count: number): number[] {
  const right = Math.ceil(count / 2);
  const left = count - right;
  return [
    ...Array.from({ length: right }, (_, index) => Math.asin(-1 + (2 * index + 1) / right)),
    ...Array.from({ length: left }, (_, index) => Math.PI - Math.asin(1 - (2 * index + 1) / left)),
  ];
}

/**
 * Which slot (angle) each node of a ring takes: in the order of the inner nodes they connect to,
 * turned to sit as near them as the slots allow, so edges run outward rather than across the picture.
 */
export function assignSlots(
  ring: string[],
  slots: number[],
  placedAngle: Map<string, number>,
  neighbours: Map<string, string[]>,
): Map<string, number> {
  const wanted = ring.map((id) => ({
    id,
    angle: meanAngle(
      (neighbours.get(id) ?? []).flatMap((neighbour) => {
        const angle = placedAngle.get(neighbour);
        return angle === undefined ? [] : [angle];
      }),
    ),
  }));
  const linked = wanted
    .filter((entry) => entry.angle !== null)
    .sort((a, b) => (a.angle ?? 0) - (b.angle ?? 0));
  const ordered = [...linked, ...wanted.filter((entry) => entry.angle === null)];
  const slotOf = (turn: number, index: number) => slots[(index + turn) % slots.length] ?? 0;
  const cost = (turn: number) =>
    linked.reduce((sum, entry, index) => sum + between(entry.angle ?? 0, slotOf(turn, index)), 0);
  let best = 0;
  for (let turn = 1; turn < slots.length; turn++) if (cost(turn) < cost(best)) best = turn;
  return new Map(ordered.map((entry, index) => [entry.id, slotOf(best, index)]));
}
