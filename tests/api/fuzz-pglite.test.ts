/** Fuzzing every endpoint on the embedded database (the run itself: fuzz-run.ts). */
import { fuzzEveryEndpoint } from './fuzz-run';

fuzzEveryEndpoint('pglite');
