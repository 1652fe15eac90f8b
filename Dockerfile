# syntax=docker/dockerfile:1
# Build stage compiles TypeScript (tsconfig.build.json: rootDir src -> dist/);
# the runtime stage carries only production dependencies and the compiled output.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/.data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
# DATA_DIR must be writable by the unprivileged user (key files when no key is configured).
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
# node:20-slim has no curl; Node 20's fetch does the probe.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# exec form: node is PID 1 and receives SIGTERM for the graceful shutdown.
CMD ["node", "dist/main.js"]
