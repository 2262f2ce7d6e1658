import type { Caller, CreateOptions } from './api-caller.js';
import type { OperationTypes } from './api-types.js';
import { type IterateQuery, offsetPages } from './pages.js';

/** The six operations every plain resource of the API has, under its name: `customers.list`, … */
export type RecordOperation = 'list' | 'count' | 'get' | 'create' | 'update' | 'delete';

/** The names of the resources that have all six (`customers`, `categories`, …), from the generated operations. */
export type RecordsName = {
  [Name in keyof OperationTypes]: Name extends `${infer Resource}.list`
    ? `${Resource}.${RecordOperation}` extends keyof OperationTypes
      ? Resource
      : never
    : never;
}[keyof OperationTypes];

type Types<Name extends RecordsName, Operation extends RecordOperation> = OperationTypes[`${Name}.${Operation}`];
/** A record of the resource, as `get` answers it. */
export type RecordOf<Name extends RecordsName> = Types<Name, 'get'>['answer'];
type Query<Name extends RecordsName, Operation extends RecordOperation> = Types<Name, Operation>['query'];
type Body<Name extends RecordsName, Operation extends RecordOperation> = Types<Name, Operation>['body'];

/**
 * `/v1/<resource>` with its six common operations, typed from the OpenAPI document by the
 * resource's name (`new RecordsResource(api, 'categories')`): a resource of the API needs no
 * method written for them, only for operations of its own (a subclass adds those).
 */
export class RecordsResource<Name extends RecordsName> {
  constructor(
    protected readonly api: Caller,
    private readonly name: Name,
  ) {}

  /** One page (`count`, `offset`), ordered by id ascending. */
  list(query: Query<Name, 'list'> = {}): Promise<Types<Name, 'list'>['answer']> {
    return this.api.call(`${this.name}.list`, { query });
  }
  /** Every record matching `query`, page after page. */
  iterate(query?: IterateQuery<Query<Name, 'list'>>): AsyncGenerator<RecordOf<Name>, void, undefined> {
    return offsetPages<RecordOf<Name>>((page) => this.api.call(`${this.name}.list`, { query: { ...query, ...page } }));
  }
  async count(query: Query<Name, 'count'> = {}): Promise<number> {
    return (await this.api.call<Types<Name, 'count'>['answer']>(`${this.name}.count`, { query })).count;
  }
  get(id: number, query: Query<Name, 'get'> = {}): Promise<RecordOf<Name>> {
    return this.api.call(`${this.name}.get`, { params: { id }, query });
  }
  create(record: Body<Name, 'create'>, options: CreateOptions = {}): Promise<Types<Name, 'create'>['answer']> {
    return this.api.call(`${this.name}.create`, { body: record, ...options });
  }
  /** The fields sent change; the answer is the whole record. */
  update(id: number, changes: Body<Name, 'update'>): Promise<Types<Name, 'update'>['answer']> {
    return this.api.call(`${this.name}.update`, { params: { id }, body: changes });
  }
  async delete(id: number): Promise<void> {
    await this.api.call(`${this.name}.delete`, { params: { id } });
  }
}
