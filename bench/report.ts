/** One measured scenario and the target it is held to. */
export interface Scenario {
  name: string;
  figure: number;
  unit: string;
  /** Further figures, printed between the unit and the ratio (`, p99 3.1 ms`). */
  extra?: string;
  /** The figure as a fraction of its ceiling (or of its budget). */
  ratio: number;
  /** What the ratio is of; default `ceiling`. */
  ratioOf?: string;
  target: { min?: number; max?: number; p99Ms?: number };
  p99Ms?: number;
}

/** `name: figure unit (x.xx of ceiling)`: the one line a scenario prints. */
export function scenarioLine(scenario: Scenario): string {
  const figure = scenario.figure >= 100 ? scenario.figure.toFixed(0) : scenario.figure.toFixed(1);
  return `${scenario.name}: ${figure} ${scenario.unit}${scenario.extra ?? ''} (${scenario.ratio.toFixed(2)} of ${scenario.ratioOf ?? 'ceiling'})`;
}

/** The pattern of a scenario line (the CI test of `--quick` and readers of saved runs use it). */
export const SCENARIO_LINE = /^([a-z][a-z0-9 ]*): (\d+(?:\.\d+)?) ([^\s,]+)(.*) \((\d+\.\d\d) of (ceiling|200 MB budget|bulk create)\)$/;

/** Whether the scenario meets its target, in words. */
export function verdict(scenario: Scenario): string {
  const { min, max, p99Ms } = scenario.target;
  const misses: string[] = [];
  if (min !== undefined && scenario.ratio < min) misses.push(`ratio ${scenario.ratio.toFixed(2)} < ${min.toFixed(2)}`);
  if (max !== undefined && scenario.ratio > max) misses.push(`ratio ${scenario.ratio.toFixed(2)} > ${max.toFixed(2)}`);
  if (p99Ms !== undefined && scenario.p99Ms !== undefined && scenario.p99Ms > p99Ms) misses.push(`p99 ${scenario.p99Ms} ms > ${p99Ms} ms`);
  const wanted = [min !== undefined && `≥ ${min.toFixed(2)}`, max !== undefined && `≤ ${max.toFixed(2)}`, p99Ms !== undefined && `p99 ≤ ${p99Ms} ms`]
    .filter(Boolean)
    .join(', ');
  if (wanted === '') return `no target (${scenario.ratio.toFixed(2)} of ${scenario.ratioOf ?? 'ceiling'})`;
  return misses.length === 0 ? `target met (${wanted})` : `target MISSED: ${misses.join(', ')}`;
}
