import { describe, expect, it } from 'vitest';
import { databaseNameOf } from '../../../server/platform/store/mongo/create-mongo-database';

describe('databaseNameOf', () => {
  it.each([
    ['mongodb://127.0.0.1:27017', 'tabhive'],
    ['mongodb://127.0.0.1:27017/', 'tabhive'],
    ['mongodb://127.0.0.1:27017/?replicaSet=rs0', 'tabhive'],
    ['mongodb://user:p%40ss@db1:27017,db2:27017/scraper?replicaSet=rs0', 'scraper'],
    ['mongodb+srv://cluster0.example.net/prod-tabhive?retryWrites=true', 'prod-tabhive'],
  ])('%s → %s', (url, name) => {
    expect(databaseNameOf(url)).toBe(name);
  });
});
