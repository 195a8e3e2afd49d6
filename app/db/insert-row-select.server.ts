import { getTableColumns, is, sql, SQL, type InferInsertModel } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * `insert into table (the row's columns) select the row's values from source`: the row is stored once
 * for each row `source` yields, so none when it yields none. Drizzle's own insert-select must name
 * every column of the table, defaults included; this names only those given. Values go as parameters
 * through each column's own mapping (JSON for jsonb) with its type named, since a parameter in a select
 * list has no column to take its type from; an SQL value (a CTE's id) is written as it is.
 */
export function insertRowSelect<T extends PgTable>(
  table: T,
  row: { [K in keyof InferInsertModel<T>]?: InferInsertModel<T>[K] | SQL },
  source: SQL,
): SQL {
  return insertRowsSelect(table, [row], source);
}

/**
 * `insertRowSelect` for several rows, stored in the order given (one `union all`, whose rows take their
 * serial ids in turn), for each row `source` yields. A column given in one row and not in another is
 * NULL there, typed as the column is.
 */
export function insertRowsSelect<T extends PgTable>(
  table: T,
  rows: { [K in keyof InferInsertModel<T>]?: InferInsertModel<T>[K] | SQL }[],
  source: SQL,
): SQL {
  const columns = getTableColumns(table);
  const keys = [
    ...new Set(rows.flatMap((row) => Object.keys(row).filter((key) => row[key as keyof typeof row] !== undefined))),
  ];
  for (const key of keys) if (!columns[key]) throw new Error(`insertRowSelect: ${key} is not a column of this table`);
  const names = keys.map((key) => sql.identifier(columns[key]!.name));
  const selects = rows.map((row) => {
    const values = keys.map((key) => {
      const column = columns[key]!;
      const value = row[key as keyof typeof row];
      if (value === undefined) return sql`null::${sql.raw(column.getSQLType())}`;
      if (is(value, SQL)) return value;
      return sql`${sql.param(value, column)}::${sql.raw(column.getSQLType())}`;
    });
    return sql`select ${sql.join(values, sql`, `)} from ${source}`;
  });
  return sql`insert into ${table} (${sql.join(names, sql`, `)}) ${sql.join(selects, sql` union all `)}`;
}
