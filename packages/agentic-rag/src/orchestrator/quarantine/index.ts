export { assessUnit, findInjections, quarantinedUnits } from './detect.js';
export type { Assessment, Finding, QuarantinedUnit } from './detect.js';
export { quarantineSources, quarantineText, quarantineWarnings } from './quarantine.js';
export type { Quarantine, QuarantineRecord } from './quarantine.js';
export { splitUnits as splitQuarantineUnits } from './units.js';
export type { Unit, UnitKind } from './units.js';
