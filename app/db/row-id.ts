/** An id a serial (PostgreSQL integer) column can hold: anything else names no row, and is not asked for. */
export const isRowId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;
