import { readingsOf } from './decode.js';
import { PROSE_ONLY, RULES, SQUASHED_RULES, type Rule } from './rules.js';
import { splitUnits, type Unit, type UnitKind } from './units.js';

/** Evidence at or above this quarantines a unit; half of it does when a neighbour is quarantined. */
const THRESHOLD = 1;
const NEIGHBOUR_THRESHOLD = 0.5;

export interface Finding {
  rule: string;
  weight: number;
  reason: string;
  /** The phrase that matched, in the reading it matched in. */
  match: string;
}

/** A piece of a text that addresses the model rather than the reader, and why. */
export interface QuarantinedUnit {
  kind: UnitKind;
  /** The unit as the document has it (with any disguise still in place). */
  text: string;
  start: number;
  end: number;
  /** The rules that matched, strongest first. */
  rules: string[];
  reason: string;
  /** The phrase that matched first. */
  match: string;
  /** How the text was disguised, when it was ("base64", "invisible characters", ...). */
  disguises: string[];
}

export interface Assessment {
  score: number;
  findings: Finding[];
  disguises: string[];
}

/** What one unit says to a model: every rule that matched in any reading, best per rule. */
export function assessUnit(text: string, kind: UnitKind = 'sentence'): Assessment {
  // A comment's delimiters are markup: what it says starts after `<!--`.
  const readings = readingsOf(kind === 'comment' ? text.replace(/^<!--|-->$/g, '').trim() : text);
  const best = new Map<string, Finding>();
  const note = (rule: Rule, match: string) => {
    const known = best.get(rule.id);
    if (!known || known.weight < rule.weight)
      best.set(rule.id, { rule: rule.id, weight: rule.weight, reason: rule.reason, match });
  };
  for (const reading of [readings.plain, ...readings.extra]) {
    for (const rule of RULES) {
      if (kind === 'code' && PROSE_ONLY.has(rule.id)) continue;
      const match = rule.pattern.exec(reading);
      if (match) note(rule, match[0].trim());
    }
  }
  for (const reading of readings.squashed) {
    for (const rule of SQUASHED_RULES) {
      const match = rule.pattern.exec(reading);
      if (match) note(rule, match[0]);
    }
  }
  const findings = [...best.values()].sort((left, right) => right.weight - left.weight);
  let score = findings.reduce((sum, finding) => sum + finding.weight, 0);
  // Text a reader never sees (a comment) or had to be decoded to be read says something only a
  // machine was meant to read: any sign of an instruction in it counts double.
  const hidden = kind === 'comment' || readings.disguises.some((disguise) => disguise !== 'HTML entities');
  if (hidden && findings.length > 0) score *= 2;
  return { score, findings, disguises: readings.disguises };
}

/**
 * The units of a text to quarantine. A unit goes when its own evidence reaches the threshold;
 * weaker evidence is enough beside a quarantined unit of the same paragraph, list item or table
 * (an injection rarely fits one sentence), and a quarantined lead-in that ends in a colon
 * ("Note to the AI:") takes the unit after it.
 */
export function quarantinedUnits(text: string): QuarantinedUnit[] {
  const units = splitUnits(text);
  const assessed = units.map((unit) => ({ unit, assessment: assessUnit(unit.text, unit.kind) }));
  const flagged = new Set<number>();
  assessed.forEach(({ assessment }, index) => {
    if (assessment.score >= THRESHOLD) flagged.add(index);
  });
  // Chat-template markup ([INST] … [/INST], <system> … </system>) makes its whole paragraph a
  // prompt, whatever the sentences inside it say.
  const templated = new Set(
    assessed
      .filter(({ assessment }) => assessment.findings.some((finding) => finding.rule === 'role-tag'))
      .map(({ unit }) => unit.block),
  );
  assessed.forEach(({ unit }, index) => {
    if (templated.has(unit.block)) flagged.add(index);
  });
  const blocks = new Set([...flagged].map((index) => units[index]!.block));
  assessed.forEach(({ unit, assessment }, index) => {
    if (blocks.has(unit.block) && assessment.score >= NEIGHBOUR_THRESHOLD) flagged.add(index);
  });
  for (const index of [...flagged]) {
    const next = assessed[index + 1];
    if (next && /:\s*$/.test(units[index]!.text) && next.unit.kind !== 'heading') flagged.add(index + 1);
  }
  return [...flagged]
    .sort((left, right) => left - right)
    .map((index) => toQuarantined(assessed[index]!.unit, assessed[index]!.assessment, units, flagged, index));
}

function toQuarantined(
  unit: Unit,
  assessment: Assessment,
  units: readonly Unit[],
  flagged: ReadonlySet<number>,
  index: number,
): QuarantinedUnit {
  const [first] = assessment.findings;
  const besideOther = !first || assessment.score < THRESHOLD;
  const neighbour = units.findIndex(
    (other, at) => at !== index && flagged.has(at) && other.block === unit.block,
  );
  return {
    kind: unit.kind,
    text: unit.text,
    start: unit.start,
    end: unit.end,
    rules: assessment.findings.map((finding) => finding.rule),
    reason: besideOther
      ? `continues an instruction to the model${first ? ` (${first.reason})` : ''}`
      : first.reason,
    match: first?.match ?? units[neighbour === -1 ? Math.max(0, index - 1) : neighbour]!.text.slice(0, 80),
    disguises: assessment.disguises,
  };
}

/** The injected phrases in a text (empty when there are none): one per quarantined unit. */
export function findInjections(text: string): string[] {
  return quarantinedUnits(text).map((unit) => unit.match);
}
