import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console is served by the service at /console; the build lands beside the service's own (dist/console).
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    port: 3401,
    // `npm run dev --workspace web` against a service started on :3400 (PORT=3400 npm run start:dev).
    proxy: {
      '/admin': 'http://127.0.0.1:3400',
      '/account': 'http://127.0.0.1:3400',
      '/v1': 'http://127.0.0.1:3400',
    },
  },
});
