/** What every table keyed by a string id offers: a row written, and read back by its id. */
export interface KeyedStatements<Row> {
  insert(row: Row): void
  get(id: string): Row | undefined
}
