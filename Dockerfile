# The site in one image: install, migrate, serve. SECRET (required: the server binds
# 0.0.0.0 and refuses to start without it), DATABASE_URL, REDIS_URL, FORWARDED_ALLOW_IPS
# are read from the environment (default database: an SQLite file in /srv/var, a volume).
#   docker run -e SECRET=... -p 8000:8000 <image>
# deploy/docker-compose.yml runs two of these behind nginx on PostgreSQL + Redis.

# The front end (build.mjs: esbuild, pinned in package-lock.json) in a stage of its own:
# only its output, static/dist/, goes into the image.
FROM node:20-slim AS front-end
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY build.mjs ./
COPY static static
RUN node build.mjs

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HOST=0.0.0.0 \
    PORT=8000

WORKDIR /srv
COPY pyproject.toml README.md alembic.ini ./
COPY engines engines
COPY app app
COPY migrations migrations
COPY templates templates
COPY static static
COPY --from=front-end /build/static/dist static/dist
RUN pip install . && useradd --system --uid 10001 --home /srv games && mkdir -p var && chown games var

USER 10001
VOLUME /srv/var
EXPOSE 8000
# Run from /srv so the app finds templates/ and static/ beside it.
CMD ["sh", "-c", "alembic upgrade head && exec python -m app"]
