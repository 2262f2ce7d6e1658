import type { Scope } from '../modules/stores/scopes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a credential needs for this operation. */
    scope?: Scope;
    /** Related objects `embed=` may name. */
    embeds?: readonly string[];
    /** What POST or PUT bodies are: JSON (the default) or CSV text (`text/csv`, imports). */
    bodyType?: 'json' | 'csv';
  }
}

export {};
