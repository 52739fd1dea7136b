import { describeSiteReplay } from '../support/site-replay-suite.ts';

// Stack Overflow through the real HTTP path. NOT recorded data: the replay serves examples built
// from the Stack Exchange API's reference documentation (tests/fixtures/reference, decision
// 0041), looped with fresh ids, exactly once across faults of every kind (kill -9:
// ingest-replay.test.ts).
describeSiteReplay('stackoverflow', 'Stack Overflow');
