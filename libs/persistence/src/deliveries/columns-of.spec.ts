import { getMetadataArgsStorage } from 'typeorm';
import { ALERT_ENTITIES, AlertMessageEntity, WebhookEntity } from '../entities';
import type { ColumnsOf, SnakeCase } from './columns-of';

const snakeCase = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe('ColumnsOf', () => {
  it.each([...ALERT_ENTITIES, WebhookEntity].map((e) => [e.name, e]))(
    'holds for %s: every column is named as its property in snake case',
    (_name, entity) => {
      const columns = getMetadataArgsStorage().columns.filter((c) => c.target === entity);
      expect(columns.length).toBeGreaterThan(2);
      for (const c of columns)
        expect({ property: c.propertyName, column: c.options.name ?? c.propertyName }).toEqual({
          property: c.propertyName,
          column: snakeCase(c.propertyName),
        });
    },
  );

  it('names the keys of a raw row as the columns and keeps the entity types', () => {
    const key: SnakeCase<'undeliverableAt'> = 'undeliverable_at';
    const row: ColumnsOf<AlertMessageEntity, 'transactionId' | 'alertCount' | 'undeliverableAt'> = {
      transaction_id: 't-1',
      alert_count: 3,
      undeliverable_at: null,
    };
    // @ts-expect-error the camel-case property name is not a key of the row
    const wrong: ColumnsOf<AlertMessageEntity, 'alertCount'> = { alertCount: 3 };
    expect([key, row.alert_count, wrong]).toEqual(['undeliverable_at', 3, { alertCount: 3 }]);
  });
});
