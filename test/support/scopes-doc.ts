import fs from 'node:fs';
import { EVENT_TOPICS, type EventTopic } from '../../src/contract/events.js';
import { isScope, type Scope } from '../../src/modules/stores/scopes.js';

/**
 * docs/scopes.md read as data: its tables are what `test/http/scopes-table.test.ts` sends, so
 * the page and the server cannot drift apart. A cell that does not parse throws, naming it.
 */

/** The read scope of the webhook's topic, or of the topic a change sends. */
export type TopicPlaceholder = 'topic' | 'new topic';

/** What a row needs: scopes by name, and the read scopes of topics it depends on. */
export interface Needs {
  scopes: Scope[];
  topics: TopicPlaceholder[];
}

export interface EndpointRow extends Needs {
  method: string;
  /** As the page writes it: `/v1/products/{id}/variations/{variationId}`. */
  path: string;
  /** The part of the request that needs more (`embed=customer`, `priceListIds`, …); '' for none. */
  with: string;
  line: number;
}

/** A row of the admin page's or the CLI's table: the calls it makes and the scopes it lists. */
export interface CallsRow extends Needs {
  name: string;
  calls: Array<{ method: string; path: string; with: string }>;
  line: number;
}

export interface ScopesDoc {
  endpoints: EndpointRow[];
  /** The topics table: each topic's read scope. */
  topicScopes: Map<EventTopic, Scope>;
  admin: CallsRow[];
  cli: CallsRow[];
}

export const SCOPES_DOC = new URL('../../docs/scopes.md', import.meta.url);

export function readScopesDoc(): ScopesDoc {
  return parseScopesDoc(fs.readFileSync(SCOPES_DOC, 'utf8'));
}

export function parseScopesDoc(markdown: string): ScopesDoc {
  const lines = markdown.split('\n');
  const endpoints = table(lines, ['method', 'path', 'with', 'scopes', 'notes']).map(({ cells: [method, path, withCell, scopes], line }) => ({
    method: code(method!, line),
    path: code(path!, line),
    with: plain(withCell!),
    ...needs(scopes!, line),
    line,
  }));
  const topicScopes = new Map<EventTopic, Scope>();
  for (const {
    cells: [topics, scope],
    line,
  } of table(lines, ['topics', 'read scope'])) {
    const readScope = needs(scope!, line).scopes;
    if (readScope.length !== 1) throw new Error(`docs/scopes.md line ${line}: one read scope per row`);
    for (const topic of backticked(topics!)) {
      if (!(EVENT_TOPICS as readonly string[]).includes(topic)) throw new Error(`docs/scopes.md line ${line}: '${topic}' is not a topic`);
      topicScopes.set(topic as EventTopic, readScope[0]!);
    }
  }
  const admin = table(lines, ['view', 'action', 'calls', 'scopes']).map(({ cells: [view, action, calls, scopes], line }) => ({
    name: `${view} / ${action}`,
    calls: parseCalls(calls!, line),
    ...needs(scopes!, line),
    line,
  }));
  const cli = table(lines, ['command', 'calls', 'scopes']).map(({ cells: [command, calls, scopes], line }) => ({
    name: plain(command!),
    calls: parseCalls(calls!, line),
    ...needs(scopes!, line),
    line,
  }));
  return { endpoints, topicScopes, admin, cli };
}

/** The key of a request in the endpoints table. */
export function rowKey(row: { method: string; path: string; with: string }): string {
  return `${row.method} ${row.path}${row.with === '' ? '' : ` with ${row.with}`}`;
}

/** The body rows of the one table of `doc` whose header is exactly `columns`. */
export function table(lines: readonly string[], columns: readonly string[], doc = 'docs/scopes.md'): Array<{ cells: string[]; line: number }> {
  const header = `| ${columns.join(' | ')} |`;
  const start = lines.findIndex((line) => line.trim() === header);
  if (start < 0) throw new Error(`${doc} has no table headed ${header}`);
  if (lines.findIndex((line, index) => index > start && line.trim() === header) >= 0) throw new Error(`${doc} has two tables headed ${header}`);
  const rows: Array<{ cells: string[]; line: number }> = [];
  for (let index = start + 2; index < lines.length && lines[index]!.trim().startsWith('|'); index++) {
    const cells = lines[index]!.trim()
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
    if (cells.length !== columns.length) throw new Error(`${doc} line ${index + 1}: ${cells.length} cells, the table has ${columns.length}`);
    rows.push({ cells, line: index + 1 });
  }
  if (rows.length === 0) throw new Error(`${doc}: the table headed ${header} is empty`);
  return rows;
}

/** A cell that is exactly one `code` span. */
export function code(cell: string, line: number, doc = 'docs/scopes.md'): string {
  const match = /^`([^`]+)`$/.exec(cell);
  if (match === null) throw new Error(`${doc} line ${line}: '${cell}' should be one code span`);
  return match[1]!;
}

function backticked(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

function plain(cell: string): string {
  return cell.replaceAll('`', '').trim();
}

/** Scopes named in code spans, and *topic* / *new topic*; words in parentheses are remarks. */
function needs(cell: string, line: number): Needs {
  const withoutRemarks = cell.replace(/\([^)]*\)/g, '');
  const scopes = backticked(withoutRemarks).map((name) => {
    if (!isScope(name)) throw new Error(`docs/scopes.md line ${line}: '${name}' is not a scope`);
    return name;
  });
  const topics = [...withoutRemarks.matchAll(/\*([^*]+)\*/g)].map((match) => {
    if (match[1] !== 'topic' && match[1] !== 'new topic') throw new Error(`docs/scopes.md line ${line}: *${match[1]}* is not a placeholder`);
    return match[1];
  });
  if (scopes.length + topics.length === 0) throw new Error(`docs/scopes.md line ${line}: no scope in '${cell}'`);
  return { scopes, topics };
}

/** "`GET /v1/a`, `POST /v1/b` with `dryRun: true`, `POST /v1/c` with e-mail header" */
function parseCalls(cell: string, line: number): CallsRow['calls'] {
  return cell.split(/,\s*(?=`(?:GET|POST|PUT|DELETE) )/).map((part) => {
    const match = /^`(GET|POST|PUT|DELETE) ([^`]+)`(?: with (.+))?$/.exec(part.trim());
    if (match === null) throw new Error(`docs/scopes.md line ${line}: '${part}' is not a call (\`METHOD /path\` [with …])`);
    return { method: match[1]!, path: match[2]!, with: plain(match[3] ?? '') };
  });
}
