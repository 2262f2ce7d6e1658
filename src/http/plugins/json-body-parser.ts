import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationFailed } from '../../modules/shared/errors.js';
import type { FieldProblem } from '../../contract/errors.js';
import { nextTurn } from '../../modules/shared/long-work.js';

/** Deeper JSON is refused before anything walks it. */
export const MAX_JSON_DEPTH = 32;
export const MAX_BODY_BYTES = 1024 * 1024;
/** From this size (about 1000 bulk items), parsing a body and validating it are two steps of the event loop. */
const LARGE_BODY_BYTES = 64 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);

declare module 'fastify' {
  interface FastifyRequest {
    /** A JSON body's bytes as received (the idempotency fingerprint hashes these). */
    rawBody: Buffer | undefined;
  }
}

/**
 * The JSON body parser: UTF-8 JSON, at most 32 levels deep, without prototype keys, its bytes
 * kept as `request.rawBody`. Registered with the others by `registerBodyParsers`.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.decorateRequest('rawBody', undefined);
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (request, body, done) => {
    // Only POST and PUT carry a body; one sent with GET or DELETE is ignored, not judged.
    if (request.method !== 'POST' && request.method !== 'PUT') {
      done(null, undefined);
      return;
    }
    let parsed: unknown;
    try {
      const bytes = body as Buffer;
      (request as FastifyRequest).rawBody = bytes;
      parsed = parseJsonBody(bytes);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    // A large body's parse and its validation (which follows `done` at once) take a turn each.
    if ((body as Buffer).length < LARGE_BODY_BYTES) done(null, parsed);
    else void nextTurn().then(() => done(null, parsed));
  });
}

export function parseJsonBody(bytes: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new AppError('invalid_json', 'Request body is not valid UTF-8');
  }
  if (text.trim() === '') throw new AppError('invalid_json', 'Request body is empty; JSON was expected');
  if (exceedsDepth(text, MAX_JSON_DEPTH)) {
    throw new AppError('invalid_json', `Request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError('invalid_json', `Request body is not valid JSON: ${(error as Error).message}`);
  }
  // A key can only be forbidden if its letters, or an escape, appear in the text.
  if (/__proto__|constructor|\\u/.test(text)) {
    const key = findForbiddenKey(value);
    if (key !== undefined) throw new AppError('invalid_json', `Request body contains the forbidden key '${key}'`);
  }
  // Only an escape (\ud800) can make half a surrogate pair: UTF-8 cannot carry one. It is not
  // text, and storing it would silently turn it into U+FFFD.
  if (/\\u[dD][89a-fA-F]/.test(text) && hasUnpairedSurrogate(value)) {
    throw new AppError('invalid_json', 'Request body contains an unpaired UTF-16 surrogate escape (\\uD800–\\uDFFF alone), which is not Unicode text');
  }
  // Only an escape can put a NUL in JSON text. PostgreSQL text cannot hold one, so no field accepts it, on either engine.
  if (text.includes('\\u0000')) {
    const problem = findNul(value);
    if (problem !== undefined) throw validationFailed([problem]);
  }
  return value;
}

/** The first key or string value holding U+0000: its position in a top-level array and its field path (`variations[1].sku`). */
function findNul(value: unknown): FieldProblem | undefined {
  const stack: Array<{ value: unknown; index: number | undefined; path: string }> = Array.isArray(value)
    ? value.map((item, index) => ({ value: item, index, path: '' }))
    : [{ value, index: undefined, path: '' }];
  const problem = (index: number | undefined, path: string): FieldProblem => ({
    ...(index !== undefined && { index }),
    field: path === '' ? null : path,
    message: 'must not contain the NUL character (\\u0000)',
  });
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (typeof current.value === 'string') {
      if (current.value.includes('\u0000')) return problem(current.index, current.path);
    } else if (Array.isArray(current.value)) {
      current.value.forEach((item, i) => stack.push({ value: item, index: current.index, path: `${current.path}[${i}]` }));
    } else if (typeof current.value === 'object' && current.value !== null) {
      for (const [key, item] of Object.entries(current.value)) {
        const path = current.path === '' ? key : `${current.path}.${key}`;
        if (key.includes('\u0000')) return problem(current.index, path);
        stack.push({ value: item, index: current.index, path });
      }
    }
  }
  return undefined;
}

/** Any key or string value with half a surrogate pair; in `u` mode a whole pair is one code point, not a Surrogate. */
function hasUnpairedSurrogate(value: unknown): boolean {
  const lone = /\p{Surrogate}/u;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (lone.test(current)) return true;
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        if (lone.test(key)) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

/** Counts brackets outside strings, without recursion. */
function exceedsDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (char === 0x5d || char === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Walks the parsed value (depth already bounded) with an explicit stack. */
function findForbiddenKey(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== 'object' || current === null) continue;
    for (const key of Object.keys(current)) {
      if (FORBIDDEN_KEYS.has(key)) return key;
      stack.push((current as Record<string, unknown>)[key]);
    }
  }
  return undefined;
}
