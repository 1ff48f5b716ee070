# The site in one image: install, migrate, serve. DATABASE_URL and REDIS_URL are read from
# the environment (default: an SQLite file in /srv/var, which is a volume).
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
RUN pip install . && useradd --system --home /srv games && mkdir -p var && chown games var

USER games
VOLUME /srv/var
EXPOSE 8000
# Run from /srv so the app finds templates/ and static/ beside it.
CMD ["sh", "-c", "alembic upgrade head && exec python -m app"]
