import type { Readable } from 'node:stream';
import { FieldsOnlyQuery, IdParams, PageOnlyQuery } from '../../contract/common.js';
import { Import, ImportChanges, ImportChangesQuery, ImportQuery, MAX_IMPORT_BYTES } from '../../contract/imports.js';
import type { ChangeSetService } from '../../modules/change-sets/change-set-service.js';
import { MAX_HEADER_SCAN_CHARS, namesCustomersByEmail } from '../../modules/imports/import-header.js';
import { bodyTooLarge, DEFAULT_IMPORT_CAPS } from '../../modules/imports/import-limits.js';
import type { ImportService } from '../../modules/imports/import-service.js';
import type { ImportUpload } from '../../modules/imports/import-upload.js';
import { AppError } from '../../modules/shared/errors.js';
import { type App, pageOf, requireScope, storeIdOf, uploaderOf } from '../plugins/app-types.js';
import { startFingerprint } from '../plugins/idempotent-create.js';
import { readPieces } from '../plugins/streamed-body.js';
import { createErrors, stateReadErrors } from './docs.js';
import { countOptions, getOptions, itemPath, listOptions, type Resource } from './resource-routes.js';

const IMPORTS: Resource = { path: '/v1/imports', tag: 'imports', one: 'an import', many: 'imports' };

/** `/v1/imports`: every operation of the resource, in one file; the upload reads its body as a stream. */
export function registerImportRoutes(app: App, imports: ImportService, changeSets: ChangeSetService): void {
  const read = { scope: 'trade_prices:read', record: Import } as const;

  app.get(IMPORTS.path, listOptions(IMPORTS, { ...read, summary: 'List imports, oldest first', querystring: PageOnlyQuery }), async (request) =>
    imports.list(storeIdOf(request), pageOf(request.query)),
  );

  app.get(`${IMPORTS.path}/count`, countOptions(IMPORTS, { scope: 'trade_prices:read' }), async (request) => ({
    count: await imports.count(storeIdOf(request)),
  }));

  app.get(
    itemPath(IMPORTS),
    getOptions(IMPORTS, { ...read, summary: 'An import: its status, progress, problems and result', querystring: FieldsOnlyQuery }),
    async (request) => imports.get(storeIdOf(request), request.params.id),
  );

  app.get(
    `${itemPath(IMPORTS)}/changes`,
    {
      schema: {
        operationId: 'imports.changes',
        tags: [IMPORTS.tag],
        summary: 'What a dry run would change: each price created, deleted or changed (old → new), paged',
        description:
          'Only for a dry run that succeeded, among the store’s 20 newest (409, code 17, for a real run, one queued, running or failed, or an older dry run, whose changes were dropped). ' +
          'The first 10 000 changes a dry run finds are kept, listed by customer id, SKU (by code point), break and the order found; `complete` is false when the dry run would change more ' +
          '(its `result` counts them all). Kept as long as the import.',
        params: IdParams,
        querystring: ImportChangesQuery,
        response: { 200: ImportChanges, ...stateReadErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => {
      const { offset = 0, count = 50 } = request.query;
      return imports.changes(storeIdOf(request), request.params.id, { offset, count });
    },
  );

  app.post(
    IMPORTS.path,
    {
      schema: {
        operationId: 'imports.create',
        tags: [IMPORTS.tag],
        summary: `Import trade prices from a CSV file (up to ${MAX_IMPORT_BYTES / 2 ** 20} MiB); answered at once, worked in the background`,
        description:
          'The body is the file itself (`Content-Type: text/csv`), in the long format (`customer_id,sku,price[,min_quantity,valid_from,valid_until]`) or the matrix (`sku,<customer id or e-mail>,…`): docs/imports.md. ' +
          'Answered 202 with the import; poll `GET /v1/imports/{id}` until `status` is `succeeded` or `failed`. A file with any problem changes nothing and lists them (row and column). ' +
          '`mode=add` creates every price; `mode=replace` gives each customer of the file exactly its prices. `dryRun=true` counts what would change. `changeSet=ID` adds the rows to that open change set as operations instead (docs/change-sets.md), and also needs `trade_prices:read`. An `Idempotency-Key` replays the first answer. ' +
          `A store has at most ${DEFAULT_IMPORT_CAPS.maxImports} imports queued or running and ${DEFAULT_IMPORT_CAPS.maxBytes / 2 ** 20} MiB of their files (configurable): past either, 429 code 16 with \`Retry-After\`. ` +
          'A matrix whose header names a customer by e-mail also needs `catalog:read` (it looks customers up by e-mail); reading the outcome (`GET /v1/imports/{id}`) needs `trade_prices:read`.',
        querystring: ImportQuery,
        consumes: ['text/csv'],
        body: { type: 'string', description: 'The CSV file, UTF-8' },
        response: { 202: Import, ...createErrors },
      },
      // The body is a stream, read below as it arrives: there is nothing to validate up front.
      validatorCompiler: () => () => true,
      config: { scope: 'trade_prices:write', bodyType: 'csv', priceChange: { unless: ['dryRun=true', 'changeSet='] } },
    },
    async (request, reply) => {
      const body = request.body as Readable;
      const storeId = storeIdOf(request);
      const { mode = 'add', dryRun = false, changeSet, fileName } = request.query;
      // Into a change set: it must be the store's and open before the file is read (404, 409 code 17).
      if (changeSet !== undefined) {
        // Adding operations answers the set's records when refused: as `POST /v1/change-sets/{id}/operations`, it reads them too.
        requireScope(request, 'trade_prices:read', 'changeSet=');
        await changeSets.assertOpen(storeId, changeSet);
      }
      const fingerprint = startFingerprint(request);

      if (await reply.hasIdempotentAnswer()) {
        // A repeat: its body is only fingerprinted, to replay the first answer (or refuse another body).
        let received = 0;
        await readPieces(body, async (piece) => {
          received += piece.length;
          if (received > MAX_IMPORT_BYTES) throw bodyTooLarge();
          fingerprint.update(piece);
        });
        request.bodyFingerprint = fingerprint.digest('hex');
        return reply.sendIdempotent(202, () =>
          Promise.reject(new AppError('idempotency_key_in_use', 'The answer under this Idempotency-Key expired while the file arrived; send it again')),
        );
      }

      const declared = request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']);
      // The file's start is held (at most MAX_HEADER_SCAN_CHARS bytes) until its header says
      // whether it names customers by e-mail, which needs a scope: refused, nothing is stored.
      const start: Buffer[] = [];
      let startBytes = 0;
      let upload: ImportUpload | undefined;
      const begin = async (complete: boolean): Promise<ImportUpload> => {
        const head = Buffer.concat(start);
        if (namesCustomersByEmail(head.toString('utf8'), complete)) requireScope(request, 'catalog:read', 'a matrix naming customers by e-mail');
        upload = await imports.startUpload(
          storeId,
          uploaderOf(request),
          { mode, dryRun, ...(changeSet !== undefined && { changeSetId: changeSet }), ...(fileName !== undefined && { fileName }) },
          Number.isSafeInteger(declared) ? declared : undefined,
        );
        if (head.length > 0) await upload.append(head);
        return upload;
      };
      try {
        await readPieces(body, async (piece) => {
          fingerprint.update(piece);
          if (upload !== undefined) return upload.append(piece);
          start.push(piece);
          startBytes += piece.length;
          if (startBytes >= MAX_HEADER_SCAN_CHARS) await begin(false);
        });
        const whole = upload ?? (await begin(true));
        await whole.complete();
        request.bodyFingerprint = fingerprint.digest('hex');
        return await reply.sendIdempotent(202, () => whole.enqueue());
      } finally {
        // Refused, replayed, failed or abandoned: nothing of it stays (a queued import is kept).
        const started = upload;
        if (started !== undefined) {
          await imports
            .discardUpload(started)
            .catch((error: unknown) =>
              request.log.error({ err: error, importId: started.importId }, 'import upload: discard failed; the maintenance loop deletes it'),
            );
        }
      }
    },
  );
}
