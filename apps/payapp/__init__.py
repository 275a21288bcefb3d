"""PayApp archetype: owner pay applications (AIA G702/G703). One vendor: GCPay."""

from cfab.apps.payapp.gcpay import GCPay

__all__ = ["GCPay"]
