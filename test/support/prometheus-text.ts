/** One sample of a scrape: `name{labels} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const HELP = new RegExp(`^# HELP (${NAME}) .*$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y;
const VALUE = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]Inf|NaN|Nan)$/;

/**
 * Parses the Prometheus text exposition format (0.0.4) strictly: every line is a HELP, a TYPE
 * or a sample of a family declared before it, label values escaped as the format says, values
 * numbers, `+Inf`, `-Inf` or NaN. Throws on the first line that is not.
 */
export function parsePrometheusText(text: string): Sample[] {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) !== '') throw new Error('the exposition must end with a newline');
  for (const [index, line] of lines.slice(0, -1).entries()) {
    const where = `line ${index + 1}: ${line}`;
    if (line === '') continue;
    if (line.startsWith('#')) {
      const type = TYPE.exec(line);
      if (type?.[1] !== undefined && type[2] !== undefined) {
        if (types.has(type[1])) throw new Error(`second TYPE for ${type[1]}: ${where}`);
        types.set(type[1], type[2]);
      } else if (!HELP.test(line)) throw new Error(`not a HELP or TYPE line: ${where}`);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (match?.[1] === undefined || match[3] === undefined) throw new Error(`not a sample: ${where}`);
    const [, name, labelText = '', valueText] = match;
    const family = [name, name.replace(/_(bucket|sum|count)$/, '')].find((candidate) => types.has(candidate));
    if (family === undefined) throw new Error(`sample of an undeclared family: ${where}`);
    if (!VALUE.test(valueText)) throw new Error(`not a number: ${where}`);
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < labelText.length) {
      const label = LABEL.exec(labelText);
      if (label?.[1] === undefined || label[2] === undefined) throw new Error(`malformed labels: ${where}`);
      labels[label[1]] = label[2].replace(/\\(["\\n])/g, (_all, escaped: string) => (escaped === 'n' ? '\n' : escaped));
    }
    samples.push({ name, labels, value: valueText.toLowerCase() === 'nan' ? NaN : Number(valueText.replace('Inf', 'Infinity')) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when none, an error when several. */
export function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
