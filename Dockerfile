# The site in one image: install, migrate, serve. SECRET (required: the server binds
# 0.0.0.0 and refuses to start without it), DATABASE_URL, REDIS_URL, FORWARDED_ALLOW_IPS
# are read from the environment (default database: an SQLite file in /srv/var, a volume).
#   docker run -e SECRET=... -p 8000:8000 <image>
# deploy/docker-compose.yml runs two of these behind nginx on PostgreSQL + Redis.
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
RUN pip install . && useradd --system --uid 10001 --home /srv games && mkdir -p var && chown games var

USER 10001
VOLUME /srv/var
EXPOSE 8000
# Run from /srv so the app finds templates/ and static/ beside it.
CMD ["sh", "-c", "alembic upgrade head && exec python -m app"]
