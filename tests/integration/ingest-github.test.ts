import { describeSiteReplay } from '../support/site-replay-suite.ts';

// GitHub through the real HTTP path: the recorded events of 2017 and 2018 (issues, pull
// requests and their comments), looped with fresh ids, exactly once across faults of every kind
// (kill -9: ingest-replay.test.ts); the ETag's 304 and X-Poll-Interval on the way.
describeSiteReplay('github', 'GitHub');
