/** Fuzzing every endpoint on PostgreSQL (the run itself: fuzz-run.ts). */
import { fuzzEveryEndpoint } from './fuzz-run';

fuzzEveryEndpoint('postgres');
