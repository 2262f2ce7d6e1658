/** How big and how long one bench run is. */
export interface BenchProfile {
  name: 'full' | 'quick' | 'smoke';
  /** Trade prices stored before each growth measurement; the first is the bulk-create scenario's, the last the read scenarios'. */
  storedSizes: number[];
  warmupSeconds: number;
  /** Measured time of each scenario and of each ceiling, split evenly over the rounds. */
  seconds: number;
  /** Rounds in which every scenario and its ceiling run in turn. */
  rounds: number;
  /** The whole run is stopped (and fails) past this. */
  limitSeconds: number;
}

export const PROFILES: Record<BenchProfile['name'], BenchProfile> = {
  full: { name: 'full', storedSizes: [10_000, 100_000, 1_000_000], warmupSeconds: 3, seconds: 30, rounds: 5, limitSeconds: 15 * 60 },
  quick: { name: 'quick', storedSizes: [10_000, 20_000, 40_000], warmupSeconds: 1, seconds: 2, rounds: 2, limitSeconds: 3 * 60 },
  // CI's check that every scenario runs and prints its line (`npm run test:bench`): figures too
  // small and short to read anything from, on a tenth of the quick run's data.
  smoke: { name: 'smoke', storedSizes: [2_000, 3_000, 4_000], warmupSeconds: 0.5, seconds: 1, rounds: 1, limitSeconds: 3 * 60 },
};

/** Connections of the bulk-create load, and loops of its in-process ceiling. */
export const BULK_CONNECTIONS = 4;
/** Connections of the read scenarios (the 50). */
export const READ_CONNECTIONS = 50;
/**
 * Connections of the quote scenario: a 100-line quote is a cart's worth of work, like a bulk
 * create, and a closed loop of 50 would measure the queue in front of it, not the quote.
 */
export const QUOTE_CONNECTIONS = 4;
/** Connections of the as-of effective price: a request's worth of reads (a dozen statements), like a quote. */
export const AS_OF_CONNECTIONS = 4;

export interface BenchOptions {
  profile: BenchProfile;
  /** PostgreSQL server to create the bench databases on; unset means SQLite. */
  adminUrl: string | undefined;
  /** Extra node flags for the server process, e.g. `--cpu-prof`. */
  serverNodeArgs: string[];
  /** `--only=as-of`: only the as-of effective-price scenario, on the largest stored size (and its ceiling). */
  only: 'as-of' | undefined;
}

/** `--quick`, `--smoke`, `--only=as-of`, `--server-node-arg=--cpu-prof`; DATABASE_URL selects PostgreSQL. */
export function parseBenchOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  let profile = PROFILES.full;
  const serverNodeArgs: string[] = [];
  let only: BenchOptions['only'];
  for (const arg of argv) {
    if (arg === '--quick') profile = PROFILES.quick;
    else if (arg === '--smoke') profile = PROFILES.smoke;
    else if (arg === '--only=as-of') only = 'as-of';
    else if (arg.startsWith('--server-node-arg=')) serverNodeArgs.push(arg.slice('--server-node-arg='.length));
    else throw new Error(`unknown argument '${arg}': use --quick, --smoke, --only=as-of or --server-node-arg=FLAG`);
  }
  const adminUrl = env.DATABASE_URL === undefined || env.DATABASE_URL === '' ? undefined : env.DATABASE_URL;
  return { profile, adminUrl, serverNodeArgs, only };
}
