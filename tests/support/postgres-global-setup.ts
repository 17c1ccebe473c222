import { writeFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The admin URL of the run's PostgreSQL server (the store tests on Postgres). */
    postgresUrl: string;
    postgresVersion: string;
  }
}

/** One PostgreSQL server for the whole run of the Postgres store project, stopped after it. */
export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  project.provide('postgresUrl', postgres.url);
  project.provide('postgresVersion', postgres.version);
  console.log(`store: postgres ${postgres.version} at ${postgres.url}`);
  // `npm test` names the version in its closing lines.
  if (process.env.SMW_POSTGRES_VERSION_FILE)
    writeFileSync(process.env.SMW_POSTGRES_VERSION_FILE, postgres.version);
  return () => postgres.stop();
}
