"""The Parlour web application, its database and the ``parlour`` command line."""
