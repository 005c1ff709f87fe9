import { PGlite } from '@electric-sql/pglite';
let t = Date.now();
const p = new PGlite(); await p.waitReady; console.log('start', Date.now() - t);
t = Date.now(); await p.query('select 1'); console.log('q', Date.now() - t);
t = Date.now(); const p2 = new PGlite(); await p2.waitReady; console.log('start2', Date.now() - t);
t = Date.now(); const dump = await p.dumpDataDir('none'); console.log('dump', Date.now() - t, dump.size);
t = Date.now(); const p3 = new PGlite({ loadDataDir: dump }); await p3.waitReady; console.log('load', Date.now() - t);
