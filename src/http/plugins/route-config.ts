import type { Scope } from '../../modules/stores/scopes.js';
import type { PriceChange } from './price-change.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The scopes a credential needs for this operation: one, or several when its answer shows
     * records another scope reads (an update answers the whole record, so it also needs the
     * read scope). The first one missing is named in the 403. docs/scopes.md lists them all.
     */
    scope?: Scope | readonly Scope[];
    /**
     * Related objects `embed=` may name, each with the scope that reads it: an embedded
     * object is a read of its own resource, so a credential lacking that scope gets 403.
     */
    embeds?: Readonly<Record<string, Scope>>;
    /** What POST or PUT bodies are: JSON (the default) or CSV text (`text/csv`, imports). */
    bodyType?: 'json' | 'csv';
    /**
     * An operation of the staff session itself (`/v1/session`): it needs no scope, and stays
     * allowed while the member must change the password (every other answers 403 until then).
     */
    staffSession?: true;
    /**
     * Whether the operation changes what a customer pays (`price-change.ts`): where the store
     * requires approval, such a request is refused (403, code 18) unless the credential has
     * `trade_prices:direct` (`plugins/approval-guard.ts`). Every POST, PUT and DELETE under
     * `/v1/` declares it, a staff session's own aside: the app is not built otherwise.
     */
    priceChange?: PriceChange;
  }
}

export {};
