import { describeSiteReplay } from '../support/site-replay-suite.ts';

// DEV through the real HTTP path: the recorded articles, looped with fresh ids, exactly once
// across faults of every kind (kill -9: ingest-replay.test.ts).
describeSiteReplay('devto', 'DEV');
