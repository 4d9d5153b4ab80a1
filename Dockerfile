# timetrack: the README's install (`npm ci && npm start`) in an image (docs/operations.md, "Containers").
# Not exercised on our CI machines (containers cannot run there): test/operations/containers.test.ts
# checks that every command here is one the tested install runs.

# Build: every dependency, then what `npm start` builds before it serves (dist/ and the web app in dist/web).
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY scripts ./scripts
COPY src ./src
COPY web ./web
RUN node bin/ensure-built.js

# Run: production dependencies only, the built files, a non-root user and the data volume.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATABASE_URL=sqlite:data/timetrack.db
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev
# Copied after the build, with its times: bin/start.js finds dist/ newer than src/ and web/ and builds nothing.
COPY --from=build /app/tsconfig.json /app/tsconfig.build.json ./
COPY --from=build /app/bin ./bin
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/src ./src
COPY --from=build /app/web ./web
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 3000
# Ready means /readyz answers 200: not while the database is down, nor once shutdown has begun.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains (SHUTDOWN_DRAIN_MS) and then finishes in-flight requests: give it the time (compose.yaml's stop_grace_period).
STOPSIGNAL SIGTERM
CMD ["node", "bin/start.js"]
