import { describeSiteReplay } from '../support/site-replay-suite.ts';

// DEV through the real HTTP path: the recorded articles, looped with fresh ids, exactly once
// across faults of every kind and across a kill -9 of the process that reads them.
describeSiteReplay('devto', 'DEV');
