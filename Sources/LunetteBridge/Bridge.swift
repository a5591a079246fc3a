public enum LunetteBridgePlaceholder {}
