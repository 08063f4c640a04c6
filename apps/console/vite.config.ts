import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// Built to dist/ (index.html and assets/<name>-<hash>.js|css), which apps/api serves at / from an
// allowlist of these files. No CDN: everything the page loads is in dist/.
export default defineConfig({
  plugins: [react()],
  base: '/',
  // The SDK's GraphQL documents (@agentic-rag/client) are bundled from its TypeScript source, which tsc
  // reads too (tsconfig.base.json's customConditions): its dist/ may be older than the source, or absent.
  resolve: { conditions: ['agentic-rag-source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false },
  // `pnpm --filter @agentic-rag/console dev` proxies the API started on :4000 (pnpm dev).
  server: { proxy: { '/graphql': 'http://127.0.0.1:4000', '/answer': 'http://127.0.0.1:4000' } },
});
