"""Errors the services raise; the app turns them into 4xx answers with a ``detail``."""


class ServiceError(Exception):
    status = 400


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409
