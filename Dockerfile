# Meeple Post in a container. The token comes from the environment at run time (never baked in);
# the database lives on the volume /data. See README.md, "Run it as a service".
FROM python:3.11-slim

# MALLOC_ARENA_MAX: fewer glibc arenas keep less freed memory from the render threads (bench/startup.py).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    MALLOC_ARENA_MAX=2 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# An unprivileged user owns the data volume and runs the bot.
RUN useradd --system --uid 10001 --user-group --home-dir /home/meeple --create-home meeple \
    && mkdir /data \
    && chown meeple:meeple /data

# Fonts for the images (render/fonts.py): Noto Sans CJK for Chinese, Japanese and Korean names and
# words, Noto Color Emoji for emoji. The serif CJK faces (~50 MB) are never used.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends fonts-noto-cjk fonts-noto-color-emoji \
    && rm -f /usr/share/fonts/opentype/noto/NotoSerifCJK-* \
    && rm -rf /var/lib/apt/lists/*

# Only what the distribution needs (.dockerignore keeps the rest out); installed as a regular
# package, data files included, then the sources are dropped.
# The exact versions the tests ran with (requirements/bot.txt, hashes checked), then the project on
# top of them with nothing else resolved.
COPY requirements/bot.txt /src/requirements/bot.txt
RUN pip install --require-hashes -r /src/requirements/bot.txt
COPY pyproject.toml README.md /src/
COPY engine /src/engine
COPY l10n /src/l10n
COPY ai /src/ai
COPY render /src/render
COPY league /src/league
COPY services /src/services
COPY bot /src/bot
COPY emulator /src/emulator
COPY sandbox /src/sandbox
COPY data /src/data
RUN pip install --no-deps --no-build-isolation /src && rm -rf /src

USER meeple
WORKDIR /data
VOLUME ["/data"]
ENV MEEPLE_DB=/data/meeple-post.db \
    MEEPLE_METRICS_PORT=9108

# /healthz answers while the bot's process and event loop do (the endpoint listens on 127.0.0.1
# inside the container unless MEEPLE_METRICS_HOST says otherwise; README.md, "Metrics and health").
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:9108/healthz', timeout=5)"]

# Exec form: python is PID 1 and gets SIGTERM itself; the bot answers the clicks in progress and
# exits 0 within a few seconds (docker stop waits 10 s before SIGKILL).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
