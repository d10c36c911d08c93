import { beforeEach, describe, expect, it } from 'vitest';
import type {
  Collection,
  Database,
  Filter,
  FindOptions,
  StoredDocument,
} from '../../../server/platform/store/database';
import { DATABASE_BACKENDS } from '../../helpers/database-backends';

interface Item extends StoredDocument {
  n?: number;
  s?: string;
  tags?: string[];
  nested?: { k?: string; d?: Date };
  items?: { sku: string; qty?: number }[];
  flag?: boolean;
  maybe?: null;
  at?: Date;
}

const ITEMS: Item[] = [
  {
    _id: 'a',
    n: 1,
    s: 'x',
    tags: ['red', 'blue'],
    nested: { k: 'v', d: new Date('2020-05-01T00:00:00Z') },
    flag: true,
  },
  { _id: 'b', n: 2, s: 'y', tags: ['green'], nested: { k: 'w' }, flag: false, maybe: null },
  { _id: 'c', n: 3, s: 'z', tags: [], items: [{ sku: 'p1', qty: 2 }, { sku: 'p2' }] },
  { _id: 'd', s: 'x', at: new Date('2024-01-01T12:00:00.123Z') },
];

/** [description, filter, ids expected in any order]: the operators the port lists, as MongoDB reads them. */
const FILTERS: [string, Filter, string[]][] = [
  ['empty filter', {}, ['a', 'b', 'c', 'd']],
  ['equality', { s: 'x' }, ['a', 'd']],
  ['$eq', { n: { $eq: 2 } }, ['b']],
  ['$ne also matches a missing field', { n: { $ne: 2 } }, ['a', 'c', 'd']],
  ['$gt', { n: { $gt: 1 } }, ['b', 'c']],
  ['$gte', { n: { $gte: 2 } }, ['b', 'c']],
  ['$lt', { n: { $lt: 3 } }, ['a', 'b']],
  ['$lte', { n: { $lte: 1 } }, ['a']],
  ['a range', { n: { $gt: 1, $lt: 3 } }, ['b']],
  ['$in', { n: { $in: [1, 3] } }, ['a', 'c']],
  ['$nin also matches a missing field', { n: { $nin: [1, 3] } }, ['b', 'd']],
  ['null matches null and missing', { maybe: null }, ['a', 'b', 'c', 'd']],
  ['undefined is read as null', { n: undefined }, ['d']],
  ['$exists true', { maybe: { $exists: true } }, ['b']],
  ['$exists false', { n: { $exists: false } }, ['d']],
  ['$ne null means present and not null', { maybe: { $ne: null } }, []],
  ['an array matches one of its elements', { tags: 'red' }, ['a']],
  ['$in on an array', { tags: { $in: ['green', 'red'] } }, ['a', 'b']],
  ['$ne on an array means no element equals', { tags: { $ne: 'red' } }, ['b', 'c', 'd']],
  ['$nin on an array', { tags: { $nin: ['red', 'green'] } }, ['c', 'd']],
  ['a dotted path', { 'nested.k': 'v' }, ['a']],
  ['a dotted path that is missing', { 'nested.k': { $exists: false } }, ['c', 'd']],
  ['a dotted path into an array of documents', { 'items.sku': 'p2' }, ['c']],
  ['a range through an array of documents', { 'items.qty': { $gte: 2 } }, ['c']],
  ['a Date range', { at: { $gte: new Date('2023-01-01T00:00:00Z') } }, ['d']],
  ['a nested Date equality', { 'nested.d': new Date('2020-05-01T00:00:00Z') }, ['a']],
  ['booleans', { flag: false }, ['b']],
  ['$ne true on booleans', { flag: { $ne: true } }, ['b', 'c', 'd']],
  ['ranges compare within a type only', { s: { $gt: 1 } }, []],
  ['string ranges', { s: { $gt: 'x' } }, ['b', 'c']],
  ['$or', { $or: [{ n: 1 }, { s: 'z' }] }, ['a', 'c']],
  ['$or beside fields', { s: 'x', $or: [{ n: { $exists: false } }, { n: { $gt: 5 } }] }, ['d']],
  ['nested $or', { $or: [{ $or: [{ n: 1 }, { n: 2 }] }, { s: 'z' }] }, ['a', 'b', 'c']],
];

/** [description, options, ids in this exact order]. Missing values sort with null, first. */
const ORDERS: [string, FindOptions, string[]][] = [
  ['ascending, missing first', { sort: { n: 1 } }, ['d', 'a', 'b', 'c']],
  ['descending, missing last', { sort: { n: -1 } }, ['c', 'b', 'a', 'd']],
  ['two keys', { sort: { s: 1, n: -1 } }, ['a', 'd', 'b', 'c']],
  ['skip and limit', { sort: { n: 1 }, skip: 1, limit: 2 }, ['a', 'b']],
  ['limit 0 is no limit', { sort: { _id: -1 }, limit: 0 }, ['d', 'c', 'b', 'a']],
  ['skip past the end', { sort: { n: 1 }, skip: 10 }, []],
  ['by a dotted path', { sort: { 'nested.k': -1, _id: 1 }, limit: 2 }, ['b', 'a']],
  ['by a Date', { sort: { at: -1, _id: 1 } }, ['d', 'a', 'b', 'c']],
];

describe.each(DATABASE_BACKENDS)('$kind database: queries', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let database: Database;
    let items: Collection<Item>;

    beforeEach(async () => {
      database = await harness.fresh();
      items = database.collection<Item>('items');
      for (const item of ITEMS) await items.insertOne(item);
    });

    it.each(FILTERS)('find: %s', async (_name, filter, expected) => {
      const found = await items.find(filter);
      expect(found.map((item) => item._id).sort()).toEqual(expected);
      expect(await items.countDocuments(filter)).toBe(expected.length);
    });

    it.each(ORDERS)('sort: %s', async (_name, options, expected) => {
      expect((await items.find({}, options)).map((item) => item._id)).toEqual(expected);
    });

    it('findOne honours the sort and answers undefined when nothing matches', async () => {
      expect((await items.findOne({ s: 'x' }, { sort: { n: -1 } }))?._id).toBe('a');
      expect((await items.findOne({ s: 'x' }, { sort: { n: 1 } }))?._id).toBe('d');
      expect(await items.findOne({ s: 'nobody' })).toBeUndefined();
    });

    it('returns plain documents as stored: same fields, Dates as Dates, nothing added', async () => {
      expect(await items.findOne({ _id: 'a' })).toEqual(ITEMS[0]);
      const d = await items.findOne({ _id: 'd' });
      expect(Object.keys(d ?? {}).sort()).toEqual(['_id', 'at', 's']);
      expect(d?.at).toBeInstanceOf(Date);
      expect(d?.at?.toISOString()).toBe('2024-01-01T12:00:00.123Z');
      expect(Object.getPrototypeOf(d)).toBe(Object.prototype);
    });

    it('leaves out undefined fields instead of storing them', async () => {
      await items.insertOne({ _id: 'u', n: 5, s: undefined });
      const found = await items.findOne({ _id: 'u' });
      expect(found).toEqual({ _id: 'u', n: 5 });
      expect(found && 's' in found).toBe(false);
    });

    it('does not share objects with the caller', async () => {
      const item: Item = { _id: 'e', tags: ['one'] };
      await items.insertOne(item);
      item.tags?.push('two');
      const found = await items.findOne({ _id: 'e' });
      found?.tags?.push('three');
      expect((await items.findOne({ _id: 'e' }))?.tags).toEqual(['one']);
    });
  });
});
