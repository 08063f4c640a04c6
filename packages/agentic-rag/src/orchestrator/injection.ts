/**
 * Kept as the import path the synthesis and self-check stages use; the detection itself is the
 * quarantine concept (./quarantine/), which the orchestrator runs over every source first.
 */
export { findInjections } from './quarantine/index.js';
