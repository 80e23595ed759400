/** The application context on PostgreSQL (the suite: app-context.ts). */
import { appContextSuite } from './app-context';

appContextSuite('postgres');
