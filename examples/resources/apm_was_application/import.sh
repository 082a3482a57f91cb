# An application is imported by "<system>/<node>/<server_id>/<context_path>", where
# <system> is the system's name or its id, and the context path's leading slash may be
# left out: both lines below import the application at /shop. The resource's id,
# "<system_id>/<node>/<server_id>/shop", imports as it is.
terraform import apm_was_application.shop shop-prod/app-01/was-1/shop
terraform import apm_was_application.shop shop-prod/app-01/was-1//shop

# The root context "/" is a lone slash: an application deployed at the root would be
# imported by "shop-prod/app-01/was-1//".

# The manager does not report source_path and application_name: after an import they are
# empty, and the next apply only records them from the configuration (nothing is redeployed).
