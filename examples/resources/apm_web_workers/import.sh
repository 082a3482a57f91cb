# A worker map is imported by its web server, "<system>/<node>/<server_id>", where
# <system> is the system's name or its id.
terraform import apm_web_workers.example shop-prod/web-01/web-1
terraform import apm_web_workers.example SYS-0001/web-01/web-1
