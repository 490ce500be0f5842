public enum ZeroMQPlaceholder {}
