import { describe, expect, it } from 'vitest';
import type { Category } from '../../src/contract/categories.js';
import { EVENT_TOPICS } from '../../src/contract/event-topics.js';
import type { CategoryFields } from '../../src/modules/catalog/category-repository.js';
import { PlainRecordsService } from '../../src/modules/shared/store-records-service.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

// The service a plain resource is built from (docs/ARCHITECTURE.md, "Adding a resource"), over
// a real table of store records: categories' (their repository is the generic one, with reads
// of its own added), without the category service's rules.
describe.each(await enginesUnderTest())('a plain resource on %s', (engine) => {
  const suite = suiteServer(engine);
  const service = () =>
    new PlainRecordsService<Category, CategoryFields, Record<never, never>>(suite.server.services.uow, suite.server.services.clock, {
      records: (repos) => repos.categories,
      topic: 'category',
      noun: 'Category',
    });
  const eventsOf = async (storeId: number, subjectId: number) =>
    (await suite.server.services.uow.repos.events.listAfter(storeId, 0, 100, EVENT_TOPICS)).filter((event) => event.subjectId === subjectId);

  it('creates, reads, updates and deletes one store’s records, each write with its event', async () => {
    const plain = service();
    const { storeId } = suite.tenant;
    const created = await plain.create(storeId, { title: 'Boots', parentId: null });
    expect(created).toEqual({ id: expect.any(Number), title: 'Boots', parentId: null, createdAt: expect.stringMatching(/Z$/) });
    expect(await plain.get(storeId, created.id)).toEqual(created);
    const second = await plain.create(storeId, { title: 'Laces', parentId: created.id });

    expect(await plain.list(storeId, {}, { count: 1, offset: 1 })).toEqual([second]);
    expect(await plain.count(storeId, {})).toBeGreaterThanOrEqual(2);

    const renamed = await plain.update(storeId, created.id, { title: 'Work boots' });
    expect(renamed).toEqual({ ...created, title: 'Work boots' });
    // An update that names no field changes nothing and answers the record.
    expect(await plain.update(storeId, created.id, {})).toEqual(renamed);

    await plain.remove(storeId, second.id);
    await expect(plain.get(storeId, second.id)).rejects.toMatchObject({ kind: 'not_found', message: `Category ${second.id} not found` });

    const topics = (await eventsOf(storeId, created.id)).map((event) => [event.topic, event.data, event.previous]);
    expect(topics).toEqual([
      ['category.created', created, undefined],
      ['category.updated', renamed, created],
      ['category.updated', renamed, renamed],
    ]);
    expect((await eventsOf(storeId, second.id)).map((event) => event.topic)).toEqual(['category.created', 'category.deleted']);
  });

  it('never reaches another store’s record: 404 and nothing changed', async () => {
    const plain = service();
    const theirs = await plain.create(suite.other.storeId, { title: 'Theirs', parentId: null });
    const { storeId } = suite.tenant;
    for (const attempt of [
      () => plain.get(storeId, theirs.id),
      () => plain.update(storeId, theirs.id, { title: 'Mine' }),
      () => plain.remove(storeId, theirs.id),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ kind: 'not_found' });
    }
    expect(await plain.get(suite.other.storeId, theirs.id)).toEqual(theirs);
    expect((await plain.list(storeId, {}, { count: 100, offset: 0 })).map((record) => record.id)).not.toContain(theirs.id);
    expect(await eventsOf(storeId, theirs.id)).toEqual([]);
  });
});
