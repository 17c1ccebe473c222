import { inject } from 'vitest';

// The store tests of this project run on the run's PostgreSQL (tests/support/testStore.ts reads it).
process.env.SMW_TEST_POSTGRES_URL = inject('postgresUrl');
