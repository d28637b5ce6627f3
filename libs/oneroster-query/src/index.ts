// @edu/oneroster-query: framework-free OneRoster v1.1 and v1.2 query language (filter, sort, fields,
// paging), field catalogs, output formatting and imsx status payloads.
export * from './errors';
export * from './model/enums';
export * from './model/field-kinds';
export * from './model/catalog';
export { V1P2_RESOURCES, type V1p2Resource } from './model/catalog-v1p2';
export * from './filter/ast';
export { resolveFilterField, type ResolvedField } from './filter/field-ref';
export { allowedOperators, parseNumberLiteral } from './filter/literals';
export { parseFilter } from './filter/parser';
export { stringifyFilter, quoteFilterValue, literalText } from './filter/stringify';
export { type RawQuery } from './params/raw-params';
export * from './params/paging-params';
export * from './params/sort-params';
export { parseFieldList } from './params/fields-param';
export * from './params/collection-query';
export * from './paging/link-header';
export * from './temporal/parse';
export * from './temporal/format';
export * from './output/select-fields';
export * from './status/status-info';
