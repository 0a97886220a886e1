# The server image: the same start script as the README's, on PostgreSQL when
# DATABASE_URL says so (docker-compose.yml does).
FROM python:3.11-slim
WORKDIR /srv/magery
ENV EXTRAS="" HOST=0.0.0.0 PORT=8000 PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
COPY pyproject.toml README.md alembic.ini ./
COPY scripts ./scripts
COPY app ./app
COPY migrations ./migrations
COPY static ./static
COPY templates ./templates
# Installs into .venv at build time, so the start below finds it ready.
RUN bash scripts/install ""
EXPOSE 8000
CMD ["bash", "scripts/serve"]
