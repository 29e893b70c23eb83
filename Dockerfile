FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# collectstatic needs a key at build time only; the real one comes from the environment at run time.
RUN SECRET_KEY=build-only DEBUG=0 ALLOWED_HOSTS=build python manage.py collectstatic --noinput
EXPOSE 8000
# the pages and the API (config/gunicorn.py); the live streams run the same image with
# config/gunicorn_live.py, behind the proxy of docker-compose.yml (config/haproxy.cfg)
CMD ["gunicorn", "-c", "config/gunicorn.py"]
