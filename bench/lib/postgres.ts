import pg from "pg";

/**
 * A fresh, empty database on the PostgreSQL server at `url` for one bench run (the app migrates and
 * seeds it), named `<prefix>_<time>`, and a way to drop it afterwards: a 60 s soak leaves about 1 GB.
 */
export async function freshPostgresDatabase(
  url: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return { url: scratch.toString(), drop: () => admin(`drop database if exists "${name}" with (force)`) };
}
