// Writes packages/client/src/api-types.ts: the request and response types of the API as plain
// TypeScript, generated from the server's TypeBox schemas (src/contract/, read from their build in
// dist/contract/). The client package ships them as they are, so a project that installs
// @pricebook/client compiles against them with no TypeBox, nor anything of the server, installed.
// The file is checked in; `--check` exits 1 when it differs from a fresh generation (a test runs
// it, so a changed schema cannot leave the client's types behind). `--file PATH` checks or
// writes another file instead. Run `npm run generate:client-types` after changing a schema.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { Type } from '@sinclair/typebox';

const root = path.resolve(import.meta.dirname, '..');
const contractDirectory = path.join(root, 'dist', 'contract');

/**
 * The types the client exports, in this order: [name, schema] where a string names an export
 * of src/contract/ and a function builds the schema from them; a third element is its doc.
 */
const TYPES = [
  ['PageOptions', (c) => Type.Object(c.PageQuery), '`count`, `offset` and `fields` of every list.'],
  ['FieldsOptions', (c) => Type.Object(c.FieldsQuery), '`fields` of single-object GETs.'],
  ['CountResult', 'CountResponse'],
  ['FieldProblem', 'FieldProblemSchema', 'One problem of a 422: `index` in a bulk array, the `field`, the `message`.'],
  ['ErrorBody', 'ErrorBodySchema'],
  ['Category', 'Category'],
  ['CategoryInput', 'CategoryInput'],
  ['CategoryUpdate', 'CategoryUpdate'],
  ['CategoryListQuery', 'CategoryListQuery'],
  ['CategoryGetQuery', 'CategoryGetQuery'],
  ['ChangeSet', 'ChangeSet'],
  ['ChangeSetInput', 'ChangeSetInput'],
  ['ChangeSetState', (c) => ({ enum: c.CHANGE_SET_STATES })],
  ['ChangeSetListQuery', 'ChangeSetListQuery'],
  ['ChangeSetOperation', (c) => Type.Union(Object.values(c.OPERATION_SCHEMAS)), 'One operation of a change set: its `type` and that type’s fields (docs/change-sets.md).'],
  ['ListedOperation', 'ListedOperation'],
  ['ChangeSetApply', 'ApplyRequest'],
  ['ChangeSetPreviewQuery', 'PreviewQuery'],
  ['ChangeSetPreview', 'ChangeSetPreview'],
  ['ChangeSetPreviewRow', 'PreviewRow'],
  ['Customer', 'Customer'],
  ['CustomerInput', 'CustomerInput'],
  ['CustomerUpdate', 'CustomerUpdate'],
  ['CustomerListQuery', 'CustomerListQuery'],
  ['CustomerCountQuery', 'CustomerCountQuery'],
  ['QuantityRule', 'QuantityRule'],
  ['QuantityRuleInput', 'QuantityRuleInput'],
  ['CustomerGroup', 'CustomerGroup'],
  ['CustomerGroupInput', 'CustomerGroupInput'],
  ['CustomerGroupUpdate', 'CustomerGroupUpdate'],
  ['CustomerGroupListQuery', 'CustomerGroupListQuery'],
  ['CustomerGroupCountQuery', 'CustomerGroupCountQuery'],
  ['CustomerGroupGetQuery', 'CustomerGroupGetQuery'],
  ['EventTopic', 'EventTopicSchema'],
  ['Event', 'Event'],
  ['EventFeedQuery', 'EventFeedQuery'],
  ['ImportMode', (c) => ({ enum: c.IMPORT_MODES })],
  ['ImportStatus', (c) => ({ enum: c.IMPORT_STATUSES })],
  ['Import', 'Import'],
  ['ImportError', 'ImportError'],
  ['ImportQuery', 'ImportQuery'],
  ['ImportResult', 'ImportResult'],
  ['ImportChangeKind', (c) => ({ enum: c.IMPORT_CHANGE_KINDS })],
  ['ImportChange', 'ImportChange'],
  ['ImportChanges', 'ImportChanges'],
  ['ImportChangesQuery', 'ImportChangesQuery'],
  ['Order', 'Order'],
  ['OrderInput', 'OrderInput'],
  ['OrderLine', 'OrderLine'],
  ['OrderListQuery', 'OrderListQuery'],
  ['OrderCountQuery', 'OrderCountQuery'],
  ['OrderGetQuery', 'OrderGetQuery'],
  ['PricedSkuInput', 'PricedSkuInput'],
  ['PriceList', 'PriceList'],
  ['PriceListInput', 'PriceListInput'],
  ['PriceListUpdate', 'PriceListUpdate'],
  ['PriceListListQuery', 'PriceListListQuery'],
  ['PriceListCountQuery', 'PriceListCountQuery'],
  ['PriceListGetQuery', 'PriceListGetQuery'],
  ['PriceHistoryEntry', 'PriceHistoryEntry'],
  ['PriceHistoryListQuery', 'PriceHistoryListQuery'],
  ['PriceHistoryCountQuery', 'PriceHistoryCountQuery'],
  ['PriceListPrice', 'PriceListPrice'],
  ['PriceListPriceInput', 'PriceListPriceInput'],
  ['PriceListPriceListQuery', 'PriceListPriceListQuery'],
  ['PriceListPriceCountQuery', 'PriceListPriceCountQuery'],
  ['PriceListEntryOverlap', 'PriceListEntryOverlap'],
  ['OverlappingEntry', 'OverlappingEntry'],
  ['PriceListOverlapQuery', 'PriceListOverlapQuery'],
  ['ReplacePriceListPricesRequest', 'ReplacePriceListPricesRequest'],
  ['ReplacePriceListPricesResult', 'ReplacePriceListPricesResult'],
  ['Product', 'Product'],
  ['ProductInput', 'ProductInput'],
  ['ProductUpdate', 'ProductUpdate'],
  ['ProductListQuery', 'ProductListQuery'],
  ['ProductCountQuery', 'ProductCountQuery'],
  ['Quote', 'Quote'],
  ['QuoteInput', 'QuoteInput'],
  ['SignInInput', 'SignInInput'],
  ['PasswordChangeInput', 'PasswordChangeInput'],
  ['StaffRole', 'StaffRoleSchema'],
  ['StaffMember', 'StaffMember'],
  ['Store', 'StoreResource'],
  ['SkuLookupRequest', 'SkuLookupRequest'],
  ['SkuLookupItem', 'SkuLookupItem'],
  ['SkuLookupResult', 'SkuLookupResult'],
  ['SkuSearchQuery', 'SkuSearchQuery'],
  ['SkuSearchItem', 'SkuSearchItem'],
  ['TradePrice', 'TradePrice'],
  ['TradePriceInput', 'TradePriceInput'],
  ['TradePriceWithEmbeds', 'TradePriceWithEmbeds'],
  ['TradePriceListQuery', 'TradePriceListQuery'],
  ['TradePriceCountQuery', 'TradePriceCountQuery'],
  ['TradePriceGetQuery', 'TradePriceGetQuery'],
  ['ReplaceTradePricesRequest', 'ReplaceTradePricesRequest'],
  ['ReplaceTradePricesResult', 'ReplaceTradePricesResult'],
  ['PriceCandidate', 'PriceCandidate'],
  ['EffectivePrice', 'EffectivePrice'],
  ['EffectivePriceQuery', 'EffectivePriceQuery'],
  ['Variation', 'Variation'],
  ['VariationInput', 'VariationInput'],
  ['VariationUpdate', 'VariationUpdate'],
  ['VariationListQuery', 'VariationListQuery'],
  ['Webhook', 'Webhook'],
  ['WebhookInput', 'WebhookInput'],
  ['WebhookUpdate', 'WebhookUpdate'],
  ['CreatedWebhook', 'CreatedWebhook'],
  ['WebhookListQuery', 'WebhookListQuery'],
  ['WebhookDelivery', 'WebhookDelivery'],
  ['WebhookDeliveryListQuery', 'WebhookDeliveryListQuery'],
];

const HEADER = `// Generated by scripts/generate-client-types.js from the API's schemas (src/contract/).
// Do not edit: run \`npm run generate:client-types\` after changing a schema.
`;

/** The text of api-types.ts from the contract's exports (every module's, merged). */
export function clientTypesSource(contract) {
  const blocks = TYPES.map(([name, source, doc]) => {
    const schema = typeof source === 'function' ? source(contract) : contract[source];
    if (schema === undefined) throw new Error(`src/contract/ exports no ${source} (for ${name})`);
    const comment = doc ?? schema.description;
    return `${comment === undefined ? '' : `/** ${docText(comment)} */\n`}export type ${name} = ${typeOf(schema, '')};\n`;
  });
  return `${HEADER}\n${blocks.join('\n')}`;
}

/** The TypeScript type of a JSON schema (the subset TypeBox writes), indented by `indent`. */
function typeOf(schema, indent) {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map((value) => JSON.stringify(value)));
  if (Array.isArray(schema.type)) {
    // Nullable(): `type: [T, "null"]` beside T's own keywords (T's type is absent for a union).
    return union(schema.type.map((type) => (type === 'null' ? 'null' : typeOf({ ...schema, type: type ?? undefined }, indent))));
  }
  if (Array.isArray(schema.anyOf)) return union(schema.anyOf.map((member) => typeOf(member, indent)));
  if (Array.isArray(schema.oneOf)) return union(schema.oneOf.map((member) => typeOf(member, indent)));
  if (Array.isArray(schema.allOf)) return schema.allOf.map((member) => wrap(typeOf(member, indent))).join(' & ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(typeOf(schema.items ?? {}, indent))}[]`;
    case 'object':
      return objectType(schema, indent);
    default:
      if (schema.properties !== undefined) return objectType(schema, indent);
      return 'unknown';
  }
}

function objectType(schema, indent) {
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(schema.properties ?? {}).map(([key, property]) => {
    const name = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
    const comment = property.description === undefined ? '' : `${inner}/** ${docText(property.description)} */\n`;
    return `${comment}${inner}${name}${required.has(key) ? '' : '?'}: ${typeOf(property, inner)};\n`;
  });
  const extra = [schema.additionalProperties, ...Object.values(schema.patternProperties ?? {})].filter((value) => typeof value === 'object');
  for (const value of extra) lines.push(`${inner}[key: string]: ${typeOf(value, inner)};\n`);
  // An open object with no named properties (an event's `data`): any JSON object.
  if (lines.length === 0 && schema.additionalProperties !== false) lines.push(`${inner}[key: string]: unknown;\n`);
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('')}${indent}}`;
}

// A description as the text of a doc comment: a star-slash in it would end the comment.
function docText(text) {
  return String(text).replaceAll('*/', '*\\/');
}

function union(members) {
  return [...new Set(members)].join(' | ');
}

/** Parentheses around a union or intersection before `[]` or `&`. */
function wrap(type) {
  return /^[^{]*[|&]/.test(type) ? `(${type})` : type;
}

async function loadContract() {
  const contract = {};
  for (const file of fs.readdirSync(contractDirectory).filter((name) => name.endsWith('.js')).sort()) {
    Object.assign(contract, await import(pathToFileURL(path.join(contractDirectory, file)).href));
  }
  return contract;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const fileAt = args.indexOf('--file');
  const file = fileAt === -1 ? path.join(root, 'packages', 'client', 'src', 'api-types.ts') : path.resolve(args[fileAt + 1] ?? '');
  if (!fs.existsSync(contractDirectory)) {
    process.stderr.write('generate-client-types: dist/contract is missing: run `npm run build` first\n');
    process.exit(1);
  }
  const fresh = clientTypesSource(await loadContract());
  if (args.includes('--check')) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (current !== fresh) {
      process.stderr.write(`generate-client-types: ${path.relative(root, file)} differs from the types generated from src/contract/: run \`npm run generate:client-types\`\n`);
      process.exit(1);
    }
    process.stdout.write(`generate-client-types: ${path.relative(root, file)} is up to date\n`);
  } else {
    fs.writeFileSync(file, fresh);
    process.stdout.write(`generate-client-types: wrote ${path.relative(root, file)}\n`);
  }
}
