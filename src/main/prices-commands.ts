import { type Command, Option } from 'commander';
import { diffPriceFile } from './prices/diff-command.js';
import { type ExportFormat, exportPrices } from './prices/export-command.js';
import { importPrices } from './prices/import-command.js';
import { DELIMITERS, type DelimiterName, parseDelimiter } from './prices/input-file.js';
import type { Pricebook } from '@pricebook/client';
import { describeRemoteError, REMOTE_ENV, type RemoteOptions, remoteClient } from './prices/remote-client.js';
import { UsageError } from './usage-error.js';

/** `--url`, `--token`, `--cacert`: where the API is and who calls it, on every `prices` command. */
function withRemoteOptions(command: Command): Command {
  return command
    .option('--url <url>', `API address, https://host:port (env ${REMOTE_ENV.url})`)
    .option('--token <token>', `API token from \`pricebook keys create\` (env ${REMOTE_ENV.token}; prefer the environment: flags show in ps)`)
    .option('--cacert <file>', `PEM certificate to trust, for a self-signed server such as ./data/tls-cert.pem (env ${REMOTE_ENV.cacert})`);
}

/** Runs a command with a client of the API, closed after; failures said in terms of what to do. */
async function withClient(options: RemoteOptions, work: (client: Pricebook) => Promise<void>): Promise<void> {
  const client = remoteClient(options, process.env);
  try {
    await work(client);
  } catch (error) {
    throw describeRemoteError(error, options, process.env);
  } finally {
    client.close();
  }
}

/** stdout closed by its reader (`| head`): nothing more to write, and nothing wrong. */
function isClosedPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}

function parseCustomerId(value: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--customer must be a positive integer, got '${value}'`);
  return Number(value);
}

/** `--customer 6,7 --customer 9`: every id of every use, in order. */
function collectCustomerIds(value: string, previous: number[] = []): number[] {
  return [...previous, ...value.split(',').map((id) => parseCustomerId(id.trim()))];
}

const DELIMITER_HELP = `field separator of the file: ${DELIMITERS.map((name) => `'${name}'`).join(', ')} (default ','); a file separated otherwise is read so and sent comma-separated (with ';', a price's decimal comma becomes a point)`;

/**
 * `pricebook prices import|export|diff`: trade prices as CSV files, over the API of a running
 * server (remote mode: `PRICEBOOK_URL`, `PRICEBOOK_TOKEN`, `PRICEBOOK_CACERT`), with the typed
 * client (src/client), paced by the rate limit. docs/imports.md has the file formats.
 */
export function registerPricesCommands(program: Command): void {
  const prices = program.command('prices').description('trade prices as CSV files, over the API of a running server (PRICEBOOK_URL, PRICEBOOK_TOKEN)');
  const output = { stdout: process.stdout, stderr: process.stderr };

  withRemoteOptions(
    prices
      .command('import')
      .description(
        'check a CSV file (UTF-8, comma-separated), upload it as an import and follow it; prints created/deleted/unchanged; writes FILE.rejected.csv and exits 1 when rows were rejected',
      )
      .argument('<file>', 'CSV file, long (customer_id,sku,price[,min_quantity,valid_from,valid_until]) or matrix (sku,<customer id or e-mail>,…)')
      .option('--replace', 'each customer in the file gets exactly its rows (default: add every row)')
      .option('--dry-run', 'check the file and count what would change; change nothing')
      .option('--delimiter <char>', DELIMITER_HELP, parseDelimiter),
  ).action((file: string, options: RemoteOptions & { replace?: boolean; dryRun?: boolean; delimiter?: DelimiterName }) =>
    withClient(options, (client) => importPrices(client, file, options, output)),
  );

  withRemoteOptions(
    prices
      .command('export')
      .description(
        'write the trade prices as CSV to stdout (what import --replace takes back unchanged); a matrix leaves out what a cell cannot hold, lists it on stderr and exits 1',
      )
      .option(
        '--customer <ids>',
        "only these customers' prices: an id, a comma-separated list, or the flag repeated; each must be a trade customer of the store",
        collectCustomerIds,
      )
      .addOption(
        new Option('--format <format>', 'long: one price a row; matrix: one SKU a row, one customer a column').choices(['long', 'matrix']).default('long'),
      ),
  ).action(async (options: RemoteOptions & { customer?: number[]; format: ExportFormat }) => {
    const customerIds = options.customer;
    await withClient(options, (client) =>
      // On a terminal the CSV is for reading: control characters in cells are written out, never sent raw.
      exportPrices(
        client,
        { format: options.format, escapeControls: process.stdout.isTTY === true, ...(customerIds !== undefined && { customerIds }) },
        process.stdout,
        process.stderr,
      ).catch((error: unknown) => {
        if (!isClosedPipe(error)) throw error;
      }),
    );
  });

  withRemoteOptions(
    prices
      .command('diff')
      .description('what `import --replace FILE` would change, per customer, as tables; changes nothing; exits 1 when the file has problems')
      .argument('<file>', 'CSV file, long or matrix')
      .option('--delimiter <char>', DELIMITER_HELP, parseDelimiter),
  ).action((file: string, options: RemoteOptions & { delimiter?: DelimiterName }) =>
    withClient(options, (client) => diffPriceFile(client, file, output, options.delimiter)),
  );
}
