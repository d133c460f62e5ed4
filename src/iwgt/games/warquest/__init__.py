"""WarQuest: conquest, quests and ranked battles for two to five warlords on the map of Myrathia."""
