/** The application context on the embedded database (the suite: app-context.ts). */
import { appContextSuite } from './app-context';

appContextSuite('pglite');
