/**
 * Keep-alive options of the suites' HTTP agents. The server closes a connection idle for its
 * keep-alive timeout (5 s, and the 1 s margin Node.js adds), by a real timer. undici drops an
 * idle connection of its own after the server's hint less 2 s (3 s), measured by coarse timers
 * that advance half a second a tick however late the tick comes: on a loaded machine, or while
 * a suite seeding in-process keeps the loop busy, those 3 s can outlast the server's 6, and a
 * request sent on the connection the server is closing fails with `read ECONNRESET`. One second
 * of undici's time stays inside the server's timeout even when its ticks run six times slow.
 */
export const AGENT_KEEP_ALIVE = { keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000 } as const;
