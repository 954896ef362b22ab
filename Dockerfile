# syntax=docker/dockerfile:1
# The web app: `docker build -t kingdoms .` then
# `docker run -p 8000:8000 -v kingdoms-data:/data kingdoms` (docs/hosting.md).

# -- build: compile the engine (mypyc + Cython, every core) into an installed venv
FROM python:3.11-slim-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md  CHANGELOG.md ./
COPY src ./src
RUN python -m venv /opt/kingdoms \
 && /opt/kingdoms/bin/pip install --no-cache-dir --upgrade pip \
 && /opt/kingdoms/bin/pip install --no-cache-dir '.[postgres]' \
 && /opt/kingdoms/bin/kingdoms --version | tee /opt/kingdoms/BUILD \
 && grep -q 'compiled build' /opt/kingdoms/BUILD

# -- runtime: Python, the installed package and a non-root user; no compiler
FROM python:3.11-slim-bookworm AS runtime
RUN useradd --system --uid 10001 --user-group --home-dir /data --create-home kingdoms
COPY --from=build /opt/kingdoms /opt/kingdoms
ENV PATH=/opt/kingdoms/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    KINGDOMS_HOST=0.0.0.0 \
    KINGDOMS_PORT=8000 \
    KINGDOMS_DB=sqlite:////data/kingdoms.sqlite
USER kingdoms
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["kingdoms", "health", "--timeout", "4"]
CMD ["kingdoms", "serve"]
